import { type BeforeApplicationShutdown, Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Bus } from '@precis/bus';
import { BUS, SERVICE_LOGGER, type ServiceLogger, TaskCompletionWatcher } from '@precis/service';

// The gateway's one subscription to task-completed events. Waiters are released before the gRPC
// server drains on shutdown, so in-flight calls answer at once instead of holding the shutdown.
@Injectable()
export class TaskCompletions implements OnModuleInit, BeforeApplicationShutdown {
  readonly watcher: TaskCompletionWatcher;

  constructor(@Inject(BUS) bus: Bus, @Inject(SERVICE_LOGGER) logger: ServiceLogger) {
    this.watcher = new TaskCompletionWatcher(bus, logger.child({ component: 'task-completions' }));
  }

  onModuleInit(): Promise<void> {
    return this.watcher.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.watcher.stop();
  }
}
