import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, NavLink, Route, Routes } from 'react-router';
import { SECTIONS } from './nav.ts';
import { currentSession, onSessionChange, type Session, signOut } from './session.ts';
import { SignIn } from './screens/SignIn.tsx';
import { Overview } from './screens/Overview.tsx';
import { Communities } from './screens/Communities.tsx';
import { Community } from './screens/Community.tsx';
import { Events } from './screens/Events.tsx';
import { Event } from './screens/Event.tsx';
import { Quests } from './screens/Quests.tsx';
import { Reviews } from './screens/Reviews.tsx';
import { Store } from './screens/Store.tsx';
import { Prizes } from './screens/Prizes.tsx';
import { Player, Players } from './screens/Players.tsx';
import { Season, Seasons } from './screens/Seasons.tsx';
import { Webhooks } from './screens/Webhooks.tsx';
import { AuditLog } from './screens/AuditLog.tsx';
import { Inventory } from './screens/Inventory.tsx';
import './styles.css';

function App() {
  const [session, setSession] = useState<Session | null>(currentSession);
  const [notice, setNotice] = useState<string | undefined>();
  // On a narrow screen the sections are a menu under the top bar, closed once one is chosen.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(
    () =>
      onSessionChange((s, reason) => {
        setSession(s);
        setNotice(reason);
      }),
    [],
  );
  if (!session) return <SignIn notice={notice} />;
  return (
    <div className="shell">
      <nav className={menuOpen ? 'sidebar open' : 'sidebar'} aria-label="sections">
        <div className="brand">
          <strong>Operator console</strong>
          <span className="muted" title={session.tenantId}>
            {session.tenantName}
          </span>
          <button type="button" className="menu-toggle" aria-expanded={menuOpen} onClick={() => setMenuOpen((o) => !o)}>
            {menuOpen ? 'Close' : 'Menu'}
          </button>
        </div>
        {SECTIONS.map((s) => (
          <NavLink key={s.path} to={s.path} title={s.hint} onClick={() => setMenuOpen(false)}>
            {s.label}
          </NavLink>
        ))}
        <button type="button" className="link signout" onClick={() => signOut()}>
          Sign out
        </button>
      </nav>
      <main>
        <Routes>
          <Route path="/" element={<Navigate to="/overview" replace />} />
          <Route path="/overview" element={<Overview />} />
          <Route path="/communities" element={<Communities />} />
          <Route path="/communities/:communityId/*" element={<Community />} />
          <Route path="/events" element={<Events />} />
          <Route path="/events/:eventId" element={<Event />} />
          <Route path="/quests" element={<Quests />} />
          <Route path="/reviews" element={<Reviews />} />
          <Route path="/store" element={<Store />} />
          <Route path="/prizes" element={<Prizes />} />
          <Route path="/inventory" element={<Inventory />} />
          <Route path="/seasons" element={<Seasons />} />
          <Route path="/seasons/:seasonId" element={<Season />} />
          <Route path="/webhooks" element={<Webhooks />} />
          <Route path="/audit-log" element={<AuditLog />} />
          <Route path="/players" element={<Players />} />
          <Route path="/players/:userId/*" element={<Player />} />
          <Route path="*" element={<p>No such screen.</p>} />
        </Routes>
      </main>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename="/console">
      <App />
    </BrowserRouter>
  </StrictMode>,
);
