/**
 * The console's sections, in the sidebar's order. A new screen is one entry here and one route in
 * main.tsx.
 */
export interface Section {
  path: string;
  label: string;
  /** What the operator does there, shown as the link's title. */
  hint: string;
}

export const SECTIONS: readonly Section[] = [
  {
    path: '/overview',
    label: 'Overview',
    hint: "Today's sessions, new players, grants, purchases, completions; live events; reviews waiting",
  },
  { path: '/communities', label: 'Communities', hint: 'Communities, members, resources, XP and leaderboards' },
  { path: '/events', label: 'Quest events', hint: 'Events, participants, rewards and allocations' },
  { path: '/quests', label: 'Quests', hint: 'Quests of a community, their tasks and schedule' },
  { path: '/reviews', label: 'Reviews', hint: "Players' submissions to quest tasks: approve, or reject with a reason" },
  { path: '/store', label: 'Store', hint: 'Listings, requirements and purchases' },
  { path: '/prizes', label: 'Prizes', hint: 'Prizes and their owners' },
  { path: '/inventory', label: 'Inventory', hint: 'Slots and items of a community: supply, units granted; create them' },
  { path: '/seasons', label: 'Seasons', hint: 'Seasons of a community: current, scheduled and past, standings and payouts' },
  {
    path: '/players',
    label: 'Players',
    hint: "A player's balances, ledger, purchases, inventory, events, notifications, socials and wallets (support)",
  },
  { path: '/webhooks', label: 'Webhooks', hint: 'Subscriptions, deliveries and their attempts, redelivery' },
  { path: '/audit-log', label: 'Audit log', hint: 'Every management write: who, which route, on what, the answer; the body on expand' },
];
