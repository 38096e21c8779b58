import { Controller, Get, Header } from '@nestjs/common';
import { MetricsRegistry } from './metrics-registry.js';

@Controller()
export class MetricsController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): string {
    return this.registry.render();
  }
}
