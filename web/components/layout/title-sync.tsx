import { useEffect } from "react";
import { useMatches } from "react-router";

/** Keeps document.title in step on client navigation; the server writes the first one into <head>. */
export function TitleSync() {
  const matches = useMatches();
  useEffect(() => {
    for (const m of [...matches].reverse()) {
      const t = (m.handle as { title?: unknown } | undefined)?.title;
      const title = typeof t === "function" ? t(m.loaderData) : t;
      if (typeof title === "string" && title) {
        document.title = `${title} · Design Intel`;
        return;
      }
    }
    document.title = "Design Intel";
  }, [matches]);
  return null;
}
