// The web front end as the app serves it (createApp's third argument): pages rendered on the server
// and the client bundle's files.
import type { WebFrontEnd } from "#server/app";
import { serveAsset } from "./assets";
import { renderPage } from "./render";

export const webFrontEnd: WebFrontEnd = { renderPage, serveAsset };
