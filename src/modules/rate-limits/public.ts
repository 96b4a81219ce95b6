// What other modules use of rate limits: budgets every instance of a deployment shares.
export { sharedRateLimiter, type SharedBudget } from "./service";
