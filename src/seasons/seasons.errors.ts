import { defineErrors } from '../common/errors/error-catalog.js';

/** Season errors: codes 20200-20299 (`season_not_found` is the resources module's: the ranking routes answer it). */
export const SeasonErrors = defineErrors({
  season_schedule_not_found: { status: 404, code: 20202, description: 'No such season schedule in this tenant.' },
  invalid_season: {
    status: 400,
    description:
      'The season is inconsistent: a window that starts in the past or ends before it starts, a reward without a rank range, an unknown resource, item, prize or quest, an invalid cron expression or time zone.',
  },
});
