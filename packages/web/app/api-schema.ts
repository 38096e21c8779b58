import type { components, operations, paths } from './api-schema.gen';

// The JSON the page reads from the gateway's REST API (/api/v1), named from the types generated
// out of its OpenAPI document (api-schema.gen.ts, `npm run openapi`).

// A path the page GETs as JSON, and what its 200 answer holds.
export type JsonPath = {
  [P in keyof paths]: paths[P]['get'] extends {
    responses: { 200: { content: { 'application/json': unknown } } };
  }
    ? P
    : never;
}[keyof paths];
export type JsonOf<P extends JsonPath> = paths[P]['get']['responses'][200]['content']['application/json'];

export type RunList = JsonOf<'/api/v1/runs'>;
export type Run = RunList['runs'][number];
export type RunUsage = NonNullable<Run['usage']>;

// What a run's page draws (also what a report file embeds, see PageView in pages/run.tsx).
export type RunView = JsonOf<'/api/v1/runs/{id}/view'>;
export type ReportBlock = RunView['blocks'][number];
export type ReportFigure = RunView['figures'][number];
export type ReportSection = RunView['sections'][number];

export type SamplePage = JsonOf<'/api/v1/runs/{id}/samples'>;
export type Sample = SamplePage['samples'][number];
export type SampleQuery = NonNullable<operations['listRunSamples']['parameters']['query']>;
export type SampleSort = NonNullable<SampleQuery['sort']>;

export type SideBySide = JsonOf<'/api/v1/runs/{id}/side-by-side/{document}'>;
export type Trace = JsonOf<'/api/v1/runs/{id}/traces/{document}'>;
export type CrossRunBoard = JsonOf<'/api/v1/leaderboard'>;

export type CallPage = JsonOf<'/api/v1/runs/{id}/traces/{document}/calls'>;
export type LedgerCall = CallPage['calls'][number];
export type RunFacts = JsonOf<'/api/v1/runs/{id}/facts'>;
export type ModelEntry = NonNullable<RunFacts['models'][number]['entry']>;

// The data of each `progress` event of GET /api/v1/runs/{id}/events.
export type RunProgress = components['schemas']['RunProgress'];
