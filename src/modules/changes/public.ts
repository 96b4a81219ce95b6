// What other parts of the app use of change detection without its routes:
// - the capture runs the volatility probe around each capture and stores its report with the
//   extraction, so a page that moves (carousels, tickers) is told from a page that changed;
// - the run history counts each run's stored changes for its runs list;
// - the watch's alert rules filter changes by severity and kind;
// - TrendHunter and the watch digest read the change feed;
// - `design-intel check visual` diffs two screenshots.
export { instrumentVolatility } from "./detect/probe";
export { withVolatility } from "./detect/volatility";
export { filterChanges } from "./detect/detect";
export { visualDiff } from "./detect/visual";
export { changeCounts, noChangeCounts } from "./counts";
export { changeHistory, RECENT_CHANGES_CAP, type ChangeHistory, type RecentChange } from "./feed";
