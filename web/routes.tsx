import type { RouteObject } from "react-router";
import { Root, rootLoader } from "./root";
import * as landing from "./routes/landing";
import * as login from "./routes/login";
import * as signup from "./routes/signup";
import * as pricing from "./routes/pricing";
import * as features from "./routes/features";
import * as notFound from "./routes/not-found";
import * as appLayout from "./routes/app-layout";
import * as dashboard from "./routes/dashboard";
import * as comparison from "./routes/comparison";
import * as comparisonView from "./routes/comparison-view";
import * as comparisonHistory from "./routes/comparison-history";
import * as comparisonRun from "./routes/comparison-run";
import * as comparisonChanges from "./routes/comparison-changes";
import * as superAdmin from "./routes/super-admin";
import * as trends from "./routes/trends";
import * as analytics from "./routes/analytics";
import * as activity from "./routes/activity";
import * as tests from "./routes/tests";
import * as generate from "./routes/generate";
import * as settings from "./routes/settings";

/** One route table for the server render and the client hydrate. */
export const routes: RouteObject[] = [
  {
    id: "root",
    path: "/",
    loader: rootLoader,
    Component: Root,
    shouldRevalidate: () => false,
    children: [
      { index: true, ...landing },
      { path: "login", ...login },
      { path: "signup", ...signup },
      { path: "pricing", ...pricing },
      { path: "features", ...features },
      {
        id: "app",
        ...appLayout,
        children: [
          { path: "dashboard", ...dashboard },
          { path: "comparison", ...comparison },
          { path: "comparison/:id/view", ...comparisonView },
          { path: "comparison/:id/history", ...comparisonHistory },
          { path: "comparison/:id/runs/:runId", ...comparisonRun },
          { path: "comparison/:id/changes", ...comparisonChanges },
          { path: "super-admin", ...superAdmin },
          { path: "trends", ...trends },
          { path: "analytics", ...analytics },
          { path: "activity", ...activity },
          { path: "tests", ...tests },
          { path: "generate", ...generate },
          { path: "settings", ...settings },
        ],
      },
      { id: "not-found", path: "*", ...notFound },
    ],
  },
];
