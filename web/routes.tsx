import type { RouteObject } from "react-router";
import { Root, rootLoader } from "./root";

/**
 * One route table for the server render and the client hydrate.
 *
 * Every page is its own chunk: `lazy` imports the module (Component, loader, handle, ...) on first
 * match. The route `id` must equal the module's file name under web/routes/: the client build
 * makes each such file an entry point and the server render preloads the chunks of the matched ids.
 * Subfolders (web/routes/layout/) hold what several pages compose from features; they are not routes.
 * Adding a page: one line `{ id: "<file>", path: "...", lazy: () => import("./routes/<file>") }`.
 */
export const routes: RouteObject[] = [
  {
    id: "root",
    path: "/",
    loader: rootLoader,
    Component: Root,
    shouldRevalidate: () => false,
    children: [
      { id: "landing", index: true, lazy: () => import("./routes/landing") },
      { id: "login", path: "login", lazy: () => import("./routes/login") },
      { id: "signup", path: "signup", lazy: () => import("./routes/signup") },
      { id: "pricing", path: "pricing", lazy: () => import("./routes/pricing") },
      { id: "features", path: "features", lazy: () => import("./routes/features") },
      { id: "share", path: "share/:token", lazy: () => import("./routes/share") },
      { id: "invite", path: "invite/:token", lazy: () => import("./routes/invite") },
      {
        id: "app-layout",
        lazy: () => import("./routes/app-layout"),
        children: [
          { id: "dashboard", path: "dashboard", lazy: () => import("./routes/dashboard") },
          { id: "comparison", path: "comparison", lazy: () => import("./routes/comparison") },
          { id: "comparison-view", path: "comparison/:id/view", lazy: () => import("./routes/comparison-view") },
          { id: "comparison-history", path: "comparison/:id/history", lazy: () => import("./routes/comparison-history") },
          { id: "comparison-run", path: "comparison/:id/runs/:runId", lazy: () => import("./routes/comparison-run") },
          { id: "comparison-changes", path: "comparison/:id/changes", lazy: () => import("./routes/comparison-changes") },
          { id: "super-admin", path: "super-admin", lazy: () => import("./routes/super-admin") },
          { id: "trends", path: "trends", lazy: () => import("./routes/trends") },
          { id: "analytics", path: "analytics", lazy: () => import("./routes/analytics") },
          { id: "activity", path: "activity", lazy: () => import("./routes/activity") },
          { id: "tests", path: "tests", lazy: () => import("./routes/tests") },
          { id: "generate", path: "generate", lazy: () => import("./routes/generate") },
          { id: "settings", path: "settings", lazy: () => import("./routes/settings") },
        ],
      },
      { id: "not-found", path: "*", lazy: () => import("./routes/not-found") },
    ],
  },
];
