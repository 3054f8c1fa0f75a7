import { Clock } from '../../src/common/clock/clock.js';

/** A clock the test moves by hand. Starts at the real time. */
export class FakeClock extends Clock {
  private offsetMs = 0;

  override now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  set(date: Date): void {
    this.offsetMs = date.getTime() - Date.now();
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
