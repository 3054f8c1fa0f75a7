import { Injectable } from '@nestjs/common';

/**
 * The source of "now" for every rule that depends on time (token expiry, event windows).
 * Tests replace it with a clock they move by hand instead of sleeping.
 */
@Injectable()
export class Clock {
  /** Milliseconds since the epoch: what a clock for tests overrides (`now` and `nowSeconds` follow). */
  nowMs(): number {
    return Date.now();
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }
}
