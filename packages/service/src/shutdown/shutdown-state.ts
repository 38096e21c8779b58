import { Injectable } from '@nestjs/common';

// Flipped as soon as a shutdown starts, so /health/ready turns 503 and load balancers stop
// routing new work here while in-flight work finishes.
@Injectable()
export class ShutdownState {
  private reason: string | null = null;

  begin(reason: string): void {
    this.reason ??= reason;
  }

  get shuttingDown(): boolean {
    return this.reason !== null;
  }

  get why(): string | null {
    return this.reason;
  }
}
