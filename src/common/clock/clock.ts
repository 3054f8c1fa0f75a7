import { Injectable } from '@nestjs/common';

/**
 * The source of "now" for every rule that depends on time (token expiry, event windows).
 * Tests replace it with a clock they move by hand instead of sleeping.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}
