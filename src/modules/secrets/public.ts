// What other modules use of secrets: the cipher, so whatever else must not sit in plain text in the
// database (a capture job's secrets and login session) is sealed the same way site secrets are.
export { open, seal, SecretUnreadable, type Sealed } from "./cipher";
