import { ValidateBy } from 'class-validator';
import { IANAZone } from 'luxon';

/** Whether `zone` is an IANA time zone the platform knows (`Europe/Berlin`, `UTC`). */
export const isTimeZone = (zone: unknown): zone is string => typeof zone === 'string' && zone.length <= 64 && IANAZone.isValidZone(zone);

/** An IANA time zone name (`Europe/Berlin`, `America/New_York`, `UTC`). */
export function IsTimeZone(): PropertyDecorator {
  return ValidateBy({
    name: 'isTimeZone',
    validator: {
      validate: (value) => isTimeZone(value),
      defaultMessage: (args) => `${args?.property} must be an IANA time zone such as Europe/Berlin or UTC`,
    },
  });
}
