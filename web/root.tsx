import { Theme } from "@radix-ui/themes";
import { useEffect } from "react";
import { Outlet, type LoaderFunctionArgs } from "react-router";
import { startSession } from "./features/auth/session";
import { useAuth } from "./features/auth/store";
import type { RootData } from "./features/auth/use-session";
import { useTheme } from "./features/theme/store";
import { TitleSync } from "./components/layout/title-sync";
import { Toaster } from "./components/ui/toast";
import { isServer, serverMaintenance, serverUser } from "./lib/loader-context";

export function rootLoader({ context }: LoaderFunctionArgs): RootData {
  if (isServer) return { user: serverUser(context), maintenance: serverMaintenance(context) };
  return { user: useAuth.getState().user, maintenance: false };
}

export function Root() {
  useEffect(() => {
    useTheme.getState().sync();
    return startSession();
  }, []);
  return (
    <Theme accentColor="violet" grayColor="slate" radius="large" scaling="100%" hasBackground>
      <TitleSync />
      <Outlet />
      <Toaster />
    </Theme>
  );
}
