import { Flex, Text } from "@radix-ui/themes";
import type { Extraction } from "#server/modules/capture/model";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** What failed while the page was captured: the same failures the findings explain, listed so they can be checked. */
export function PageProblemsNote({ ex }: { ex: Extraction }) {
  const failed = ex.network?.failed ?? [];
  const failedCount = ex.network?.failedCount ?? failed.length;
  const entries = ex.console ?? [];
  if (failedCount === 0 && entries.length === 0) return null;
  const summary = [
    failedCount > 0 ? `${plural(failedCount, "request")} failed` : "",
    entries.length > 0 ? plural(entries.length, "console error") : "",
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <details data-testid="page-problems" style={{ padding: "var(--space-2) var(--space-1) 0" }}>
      <summary>
        <Text size="1" color="amber">
          {summary}
        </Text>
      </summary>
      <Flex direction="column" gap="1" pt="1" asChild>
        <ul style={{ margin: 0, paddingLeft: "var(--space-4)" }}>
          {failed.map((f, i) => (
            <li key={`r${i}`}>
              <Text size="1" style={{ wordBreak: "break-all" }}>
                {f.type} · {f.reason} · {f.url}
              </Text>
            </li>
          ))}
          {entries.map((e, i) => (
            <li key={`c${i}`}>
              <Text size="1" color="gray" style={{ wordBreak: "break-word" }}>
                {e.level === "exception" ? "uncaught" : "console"}: {e.text}
              </Text>
            </li>
          ))}
        </ul>
      </Flex>
    </details>
  );
}
