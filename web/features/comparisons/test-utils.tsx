// Helpers for this feature's component tests (never imported by the app). Load it with a dynamic
// import after tests/support/dom, like every module that pulls in react-dom.
import type { ReactNode } from "react";
import { renderUi as renderAt } from "#tests/support/ui";

export { $, type FetchCall, mockFetch } from "#tests/support/ui";

/** Renders inside the Radix theme, a router (at /comparison unless told) and the toaster. */
export const renderUi = (node: ReactNode, path = "/comparison") => renderAt(node, path);

export { comparison, extraction, snapshot, target } from "./test-fixtures";
