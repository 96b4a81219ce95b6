// Launch / Stop from Mission Control (spec §4 "Dashboard system": Launch sets active after a
// successful start call, Stop sets offline) with the §8 toasts.
import { useState } from "react";
import { toast } from "#web/components/ui/toast";
import { api, call, errorMessage } from "#web/lib/api";
import { refreshActivity } from "./refresh";
import { useLive } from "./store";

export function useSystemControl() {
  const [pending, setPending] = useState<"start" | "stop" | null>(null);

  async function run(action: "start" | "stop") {
    setPending(action);
    try {
      const s = await call(api.system[action].post());
      useLive.setState({ systemActive: typeof s?.isActive === "boolean" ? s.isActive : action === "start" });
      if (action === "start") toast({ title: "System Started", description: "AI Design Intelligence System activated" });
      else toast({ title: "System Stopped", description: "System deactivated" });
      refreshActivity();
    } catch (err) {
      toast({
        title: "Error",
        description: errorMessage(err, action === "start" ? "Failed to start system" : "Failed to stop system"),
        variant: "destructive",
      });
    } finally {
      setPending(null);
    }
  }

  return { pending, launch: () => run("start"), stop: () => run("stop") };
}
