import { Badge, Button, Card, Code, DataList, Flex, Heading, Select, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Viewport } from "#server/modules/capture/model";
import type { FindingDto } from "#server/modules/comparisons/model";
import { type FindingFilters, filterFindings, type Pair } from "../../results-data";

const SEVERITY_COLOR = { high: "red", medium: "orange", low: "gray" } as const;
const GROUP_LABEL = { design: "Design", ux: "UX", copy: "Copy", timing: "Timing" } as const;
/** Evidence that is markup or a selector: shown as code, so a designer can paste it into DevTools. */
const CODE_EVIDENCE = new Set(["Example element", "Example selector"]);

/** An accessibility finding names its axe-core rule and the WCAG level it tests (analysis/findings/accessibility.ts). */
function AxeRule({ finding }: { finding: FindingDto }) {
  if (!finding.rule || !finding.evidence["axe-core rule"]) return null;
  const level = finding.evidence["WCAG level"]?.split(" (")[0];
  return (
    <>
      <Code size="1" variant="soft" aria-label={`axe-core rule ${finding.rule}`}>
        {finding.rule}
      </Code>
      {level && (
        <Badge variant="soft" color="indigo">
          {level === "Best practice" ? "Best practice" : `WCAG ${level}`}
        </Badge>
      )}
    </>
  );
}

interface Props {
  /** Every finding of the comparison (what the export holds); the filters decide what shows. */
  findings: FindingDto[];
  pair: Pair;
  labelOf(targetId: string): string;
  viewport: Viewport;
}

/** Evidence-backed fixes, by default for the two sites on screen; the count always says what is hidden. */
export function FindingsList({ findings: all, pair, labelOf, viewport }: Props) {
  const [scope, setScope] = useState<{ viewport: "view" | "all"; sites: FindingFilters["sites"]; severity: FindingFilters["severity"] }>({
    viewport: "view",
    sites: "pair",
    severity: "all",
  });
  const filters: FindingFilters = { viewport: scope.viewport === "view" ? viewport : "all", sites: scope.sites, severity: scope.severity };
  const { shown: findings, total, summary } = filterFindings(all, filters, pair, labelOf);
  const hidden = total - findings.length;
  return (
    <Card size={{ initial: "2", sm: "3" }}>
      <Flex align="center" gap="2" mb="3" wrap="wrap">
        <Heading as="h2" size="4">
          Findings
        </Heading>
        <Badge radius="full" variant="surface" data-testid="findings-count" aria-label={`Findings shown: ${summary}`}>
          {summary}
        </Badge>
        {hidden > 0 && (
          <Button size="1" variant="ghost" onClick={() => setScope({ viewport: "all", sites: "all", severity: "all" })}>
            Show all {total}
          </Button>
        )}
      </Flex>
      <Flex gap="2" wrap="wrap" mb="3" role="group" aria-label="Filter findings">
        <Select.Root value={scope.viewport} onValueChange={(v) => setScope({ ...scope, viewport: v === "all" ? "all" : "view" })}>
          <Select.Trigger aria-label="Viewport" />
          <Select.Content>
            <Select.Item value="view">{viewport === "desktop" ? "Desktop" : "Mobile"} only</Select.Item>
            <Select.Item value="all">All viewports</Select.Item>
          </Select.Content>
        </Select.Root>
        <Select.Root value={scope.sites} onValueChange={(v) => setScope({ ...scope, sites: v === "all" ? "all" : "pair" })}>
          <Select.Trigger aria-label="Sites" />
          <Select.Content>
            <Select.Item value="pair">
              {labelOf(pair[0])} and {labelOf(pair[1])}
            </Select.Item>
            <Select.Item value="all">All sites</Select.Item>
          </Select.Content>
        </Select.Root>
        <Select.Root value={scope.severity} onValueChange={(v) => setScope({ ...scope, severity: v as FindingFilters["severity"] })}>
          <Select.Trigger aria-label="Severity" />
          <Select.Content>
            <Select.Item value="all">Any severity</Select.Item>
            <Select.Item value="high">High</Select.Item>
            <Select.Item value="medium">Medium</Select.Item>
            <Select.Item value="low">Low</Select.Item>
          </Select.Content>
        </Select.Root>
      </Flex>
      {findings.length === 0 ? (
        <Text size="2" color="gray">
          {total === 0 ? "No findings for this comparison." : `No findings match these filters (${hidden} hidden).`}
        </Text>
      ) : (
        <Flex direction="column" gap="3" asChild>
          <ol style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {findings.map((f) => (
              <li key={f.id}>
                <Card variant="surface">
                  <Flex gap="2" align="center" wrap="wrap" mb="1">
                    <Badge color={SEVERITY_COLOR[f.severity]}>{f.severity}</Badge>
                    <Badge variant="outline">{GROUP_LABEL[f.group]}</Badge>
                    <AxeRule finding={f} />
                    <Text size="1" color="gray">
                      for {labelOf(f.targetId)}
                      {filters.viewport === "all" ? ` · ${f.viewport}` : ""}
                      {f.source === "llm" ? " · AI suggestion" : ""}
                    </Text>
                  </Flex>
                  <Text as="p" weight="bold" size="2" mb="1">
                    {f.title}
                  </Text>
                  {Object.keys(f.evidence).length > 0 && (
                    <DataList.Root size="1" mb="2" orientation={{ initial: "vertical", sm: "horizontal" }}>
                      {Object.entries(f.evidence).map(([k, v]) => (
                        <DataList.Item key={k}>
                          <DataList.Label minWidth="140px">{k}</DataList.Label>
                          <DataList.Value>
                            {CODE_EVIDENCE.has(k) ? (
                              <Code size="1" style={{ wordBreak: "break-all" }}>
                                {v}
                              </Code>
                            ) : (
                              v
                            )}
                          </DataList.Value>
                        </DataList.Item>
                      ))}
                    </DataList.Root>
                  )}
                  <Text as="p" size="2">
                    <Text weight="medium">Fix: </Text>
                    {f.fix}
                  </Text>
                </Card>
              </li>
            ))}
          </ol>
        </Flex>
      )}
    </Card>
  );
}
