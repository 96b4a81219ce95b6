import { Badge, Card, DataList, Flex, Heading, Text } from "@radix-ui/themes";
import type { Viewport } from "#server/modules/capture/model";
import type { FindingDto } from "#server/modules/comparisons/model";

const SEVERITY_COLOR = { high: "red", medium: "orange", low: "gray" } as const;
const GROUP_LABEL = { design: "Design", ux: "UX", copy: "Copy", timing: "Timing" } as const;

interface Props {
  findings: FindingDto[];
  labelOf(targetId: string): string;
  viewport: Viewport;
}

/** Evidence-backed fixes for the two sites on screen. */
export function FindingsList({ findings, labelOf, viewport }: Props) {
  return (
    <Card size="3">
      <Flex align="center" gap="2" mb="3">
        <Heading as="h2" size="4">
          Findings
        </Heading>
        <Badge radius="full" variant="surface">
          {findings.length}
        </Badge>
      </Flex>
      {findings.length === 0 ? (
        <Text size="2" color="gray">
          No findings for these two sites in the {viewport} view.
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
                    <Text size="1" color="gray">
                      for {labelOf(f.targetId)}
                      {f.source === "llm" ? " · AI suggestion" : ""}
                    </Text>
                  </Flex>
                  <Text as="p" weight="bold" size="2" mb="1">
                    {f.title}
                  </Text>
                  {Object.keys(f.evidence).length > 0 && (
                    <DataList.Root size="1" mb="2">
                      {Object.entries(f.evidence).map(([k, v]) => (
                        <DataList.Item key={k}>
                          <DataList.Label minWidth="140px">{k}</DataList.Label>
                          <DataList.Value>{v}</DataList.Value>
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
