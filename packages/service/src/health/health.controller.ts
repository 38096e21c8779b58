import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, type HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import { SERVICE_INFO, type ServiceInfo } from '../core/tokens.js';
import { ReadinessService } from './readiness.service.js';

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessService,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
  ) {}

  // Live = the event loop answers; restarting would not help with anything else.
  @Get('live')
  live(): { status: 'ok'; service: string; version: string; uptimeSeconds: number } {
    return {
      status: 'ok',
      service: this.info.name,
      version: this.info.version,
      uptimeSeconds: Math.round((Date.now() - this.info.startedAt.getTime()) / 1000),
    };
  }

  @Get('ready')
  @HealthCheck()
  async ready(): Promise<HealthCheckResult> {
    try {
      const result = await this.health.check(this.readiness.indicators());
      this.readiness.recordOutcome(true, result.details);
      return result;
    } catch (err) {
      if (err instanceof ServiceUnavailableException) this.readiness.recordOutcome(false, err.getResponse());
      throw err;
    }
  }
}
