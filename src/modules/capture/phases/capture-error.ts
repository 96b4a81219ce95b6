/** A capture failure whose message is meant for the user (it is stored as the target's failure reason). */
export class CaptureError extends Error {}
