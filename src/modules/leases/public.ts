// What other modules use of leases: one holder at a time for work a deployment does once.
export { DEFAULT_LEASE_TTL_MS, currentHolder, leaseKeeper, type LeaseKeeper, type LeaseOptions, type LeaseState } from "./service";
