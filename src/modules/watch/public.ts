// What other modules may use of watch: the schedule shown on a comparison, and change detection
// with its query/response schemas (history serves changes between runs).
export { changesQuery, changesResponse, visualQuery } from "./changes/model";
export { detectChanges } from "./changes/detect";
export { scheduleView } from "./schedule/model";
