// The API shapes Mission Control holds, from the server's models (types only).
export type { ActivityEntryDto } from "#server/modules/activity/model";
export type {
  AgentDto,
  AgentUpdate,
  AnalyticsDto,
  ComponentDto,
  ExperimentDto,
  MetricsDto,
  TrendDto,
  TrendSettings,
} from "#server/modules/agents/model";
export type { SystemStatusDto } from "#server/modules/system/model";
