// What other modules may use of activity: recording and reading the feed (the agents write to it).
export { activityService } from "./service";
