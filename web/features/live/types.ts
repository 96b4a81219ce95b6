// The API shapes Mission Control holds, from the server's models (types only).
export type { ActivityEntryDto } from "../../../src/modules/activity/model";
export type {
  AgentDto,
  AgentUpdate,
  AnalyticsDto,
  ComponentDto,
  ExperimentDto,
  MetricsDto,
  TrendDto,
  TrendSettings,
} from "../../../src/modules/agents/model";
export type { SystemStatusDto } from "../../../src/modules/system/model";
