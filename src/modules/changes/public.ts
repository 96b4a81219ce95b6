// What other parts of the app use of change detection without its routes:
// - the run history counts each run's stored changes for its runs list;
// - the watch's alert rules filter changes by severity and kind;
// - TrendHunter and the watch digest read the change feed;
// - `design-intel check visual` diffs two screenshots.
export { filterChanges } from "./detect/detect";
export { visualDiff } from "./detect/visual";
export { changeCounts, noChangeCounts } from "./counts";
export { changeHistory, RECENT_CHANGES_CAP, type ChangeHistory, type RecentChange } from "./feed";
