// The spec's own words, shared by the console and the maintenance screen.
export const MAINTENANCE_MESSAGE = "System is currently in maintenance mode. Users cannot access the application.";
