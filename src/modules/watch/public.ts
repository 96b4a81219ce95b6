// What other parts of the app use of the watch without its routes:
// - the capture worker runs the volatility probe around each capture and stores its report with
//   the extraction, so change detection can tell a page that moves (carousels, tickers) from a
//   page that changed;
// - the run history detects changes between two runs with it, and serves the changes API's shapes;
// - a comparison shows its schedule.
export { instrumentVolatility } from "./changes/probe";
export { mergeVolatility, volatilityOf, withVolatility, type Volatility } from "./changes/volatility";
export { detectChanges } from "./changes/detect";
export { changeKinds, changesQuery, changesResponse, severities, visualQuery } from "./changes/model";
export { scheduleView } from "./schedule/model";
