// What other parts of the app use of the watch without its routes: a comparison shows its schedule.
export { scheduleView } from "./schedule/model";
