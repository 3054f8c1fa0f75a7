import { Clock } from '../../src/common/clock/clock.js';

/** A clock the test moves by hand. Starts at the real time. */
export class FakeClock extends Clock {
  private offsetMs = 0;
  /** While frozen, the time (ms) every `now()` gives: several writes at the very same instant. */
  private frozenMs?: number;

  override nowMs(): number {
    return this.frozenMs ?? Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    if (this.frozenMs !== undefined) this.frozenMs += ms;
    else this.offsetMs += ms;
  }

  set(date: Date): void {
    if (this.frozenMs !== undefined) this.frozenMs = date.getTime();
    else this.offsetMs = date.getTime() - Date.now();
  }

  /** Stops the clock (at `date`, or now) until `unfreeze`; `advance` and `set` still move it. */
  freeze(date: Date = this.now()): void {
    this.frozenMs = date.getTime();
  }

  /** Runs on from where it was frozen. */
  unfreeze(): void {
    if (this.frozenMs === undefined) return;
    this.offsetMs = this.frozenMs - Date.now();
    this.frozenMs = undefined;
  }

  reset(): void {
    this.offsetMs = 0;
    this.frozenMs = undefined;
  }
}
