// The selected comparison and its targets, kept current without a manual reload: socket messages
// (via the live store) update it at once, and a 2 s poll while running covers a missing socket.
import { useCallback, useEffect, useRef, useState } from "react";
import type { ColorScheme, ConsentPolicy } from "#server/modules/capture/model";
import type { AddTargetInput, ComparisonDto, TargetDto } from "#server/modules/comparisons/model";
import { errorMessage } from "#web/lib/api";
import { toast } from "#web/components/ui/toast";
import { addTarget, type ComparisonSettings, deleteTarget, getComparison, listTargets, startComparison, updateComparison } from "./api";
import { colorSchemesOf } from "./page-variants";
import { clearComparisonLive, useComparisonLive } from "./store";
import { startBlocker } from "./validation";

export const POLL_INTERVAL_MS = 2000;

export interface ComparisonDetailData {
  comparison: ComparisonDto;
  targets: TargetDto[];
}

/** Applies a live update to loaded rows (pure, so the merge rules are testable). */
export function mergeLive(
  data: ComparisonDetailData,
  live: { status: ComparisonDto["status"]; progress: ComparisonDto["progress"]; targets: Record<string, TargetDto["status"]> },
): ComparisonDetailData {
  return {
    comparison: { ...data.comparison, status: live.status, progress: live.progress },
    targets: data.targets.map((t) => {
      const status = live.targets[t.id];
      return status && status !== t.status ? { ...t, status } : t;
    }),
  };
}

/** Use inside a component keyed by the comparison id: state starts over when the selection changes. */
export function useComparisonDetail(id: string, initial: ComparisonDetailData | null) {
  const [data, setData] = useState<ComparisonDetailData | null>(initial?.comparison.id === id ? initial : null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [starting, setStarting] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const reload = useCallback(async () => {
    const [comparison, targets] = await Promise.all([getComparison(id), listTargets(id)]);
    if (!mounted.current) return;
    setData({ comparison, targets });
    setLoadFailed(false);
    // The rows are now the truth; an older pushed status must not override them.
    clearComparisonLive(id);
  }, [id]);

  useEffect(() => {
    if (data) return;
    reload().catch(() => mounted.current && setLoadFailed(true));
    // Only on mount: later loads are explicit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Pushed updates: only messages that arrive after this view mounted count.
  const live = useComparisonLive((s) => s.byId[id]);
  const seen = useRef(live?.seq ?? 0);
  useEffect(() => {
    if (!live || live.seq <= seen.current) return;
    seen.current = live.seq;
    setData((prev) => (prev ? mergeLive(prev, live) : prev));
    if (live.status !== "running") reload().catch(() => {});
  }, [live, reload]);

  // Fallback poll while running; a chain of timeouts so slow answers never overlap.
  const status = data?.comparison.status;
  useEffect(() => {
    if (status !== "running") return;
    let timer: ReturnType<typeof setTimeout>;
    let stopped = false;
    const tick = async () => {
      try {
        await reload();
      } catch {
        /* keep polling; a blip should not freeze the page */
      }
      if (!stopped) timer = setTimeout(tick, POLL_INTERVAL_MS);
    };
    timer = setTimeout(tick, POLL_INTERVAL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [status, reload]);

  const start = useCallback(async () => {
    const blocker = startBlocker(id, data?.targets.length ?? 0);
    if (blocker) {
      toast({ title: "Failed to Start", description: blocker, variant: "destructive" });
      return;
    }
    setStarting(true);
    try {
      await startComparison(id);
      toast({ title: "Comparison Started", description: "Capturing every site on desktop and mobile. Sit tight." });
      await reload().catch(() => {});
    } catch (err) {
      toast({
        title: "Failed to Start",
        description: errorMessage(err, "Unable to start comparison. Please try again."),
        variant: "destructive",
      });
    } finally {
      if (mounted.current) setStarting(false);
    }
  }, [id, data?.targets.length, reload]);

  const add = useCallback(
    async (input: AddTargetInput): Promise<boolean> => {
      try {
        const target = await addTarget(id, input);
        toast({ title: "Target Added", description: `${target?.label ?? input.label} joined the line-up.` });
        await reload().catch(() => {});
        return true;
      } catch (err) {
        toast({
          title: "Failed to Add Target",
          description: errorMessage(err, "Unable to add website. Please check the URL and try again."),
          variant: "destructive",
        });
        return false;
      }
    },
    [id, reload],
  );

  const remove = useCallback(
    async (target: TargetDto) => {
      try {
        await deleteTarget(target.id);
        toast({ title: "Target Removed", description: `${target.label} left the comparison.` });
        await reload().catch(() => {});
      } catch (err) {
        toast({
          title: "Removal Failed",
          description: errorMessage(err, "Unable to remove website. Please try again."),
          variant: "destructive",
        });
      }
    },
    [reload],
  );

  /** The next run's capture settings: what it does about cookie banners, and whether it also captures dark. */
  const saveSettings = useCallback(
    async (input: ComparisonSettings) => {
      try {
        const updated = await updateComparison(id, input);
        const saved = { consent: updated.consent, colorSchemes: colorSchemesOf(updated) };
        if (mounted.current) setData((prev) => (prev ? { ...prev, comparison: { ...prev.comparison, ...saved } } : prev));
      } catch (err) {
        toast({
          title: "Not Saved",
          description: errorMessage(err, "Unable to change the setting. Please try again."),
          variant: "destructive",
        });
      }
    },
    [id],
  );
  const setConsent = useCallback((consent: ConsentPolicy) => saveSettings({ consent }), [saveSettings]);
  const setColorSchemes = useCallback((colorSchemes: ColorScheme[]) => saveSettings({ colorSchemes }), [saveSettings]);

  return { data, loadFailed, starting, reload, start, add, remove, setConsent, setColorSchemes };
}
