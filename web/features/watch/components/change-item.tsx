import { ArrowRightIcon } from "@radix-ui/react-icons";
import { Badge, Box, Code, Flex, Grid, Text } from "@radix-ui/themes";
import type { Change, RunDetail } from "../api";
import { type Box as PageBox, frameOf, KIND_LABEL, SEVERITY_COLOR, SEVERITY_LABEL } from "../changes-data";
import { EvidenceCrop } from "./evidence-crop";

type Snapshot = RunDetail["snapshots"][number];

interface Props {
  change: Change;
  before: Snapshot | undefined;
  after: Snapshot | undefined;
}

const VIEWPORT_WIDTH = { desktop: 1440, mobile: 390 } as const;
const HEX = /^#[0-9a-f]{3,8}$/i;

function Value({ value, side }: { value: string | null; side: "before" | "after" }) {
  if (value === null)
    return (
      <Text size="2" color="gray">
        {side === "before" ? "(not there)" : "(removed)"}
      </Text>
    );
  return (
    <Flex align="center" gap="1" style={{ minWidth: 0 }}>
      {HEX.test(value) && (
        <span
          aria-hidden
          style={{ width: 14, height: 14, borderRadius: 3, background: value, border: "1px solid var(--gray-a7)", flex: "none" }}
        />
      )}
      <Code size="2" variant="ghost" color={side === "before" ? "red" : "green"} style={{ overflowWrap: "anywhere" }}>
        {value}
      </Code>
    </Flex>
  );
}

/** One change: what kind, how much it matters, what it was and is, and where on the page. */
export function ChangeItem({ change, before, after }: Props) {
  const ev = change.evidence;
  const afterBoxes: PageBox[] = [...(ev.afterBox ? [ev.afterBox] : []), ...(ev.regions ?? [])];
  const frame = (s: Snapshot) => frameOf(s, VIEWPORT_WIDTH[change.viewport]);
  const crops = [
    before && ev.beforeBox ? { key: "before", snap: before, boxes: [ev.beforeBox], caption: "Before", tone: "before" as const } : null,
    after && afterBoxes.length > 0 ? { key: "after", snap: after, boxes: afterBoxes, caption: "After", tone: "after" as const } : null,
  ].filter((c) => c !== null);
  const extras = [
    ev.deltaE !== undefined ? `ΔE ${ev.deltaE.toFixed(1)}` : null,
    ev.changedShare !== undefined ? `${(ev.changedShare * 100).toFixed(1)}% of the page` : null,
    ev.usual ? `usually ${ev.usual}` : null,
  ].filter(Boolean);

  return (
    <Box p="3" style={{ border: "1px solid var(--gray-a5)", borderRadius: "var(--radius-3)" }} data-testid="change-item">
      <Flex gap="2" align="center" wrap="wrap" mb="2">
        <Badge color={SEVERITY_COLOR[change.severity]} variant="soft" highContrast>
          {SEVERITY_LABEL[change.severity]}
        </Badge>
        <Badge color="gray" variant="surface">
          {KIND_LABEL[change.kind]}
        </Badge>
        <Badge color={change.viewport === "desktop" ? "indigo" : "cyan"} variant="soft" highContrast>
          {change.viewport}
        </Badge>
        {extras.map((e) => (
          <Text key={e} size="1" color="gray">
            {e}
          </Text>
        ))}
      </Flex>
      <Text as="p" size="3" weight="medium" mb="2" style={{ overflowWrap: "anywhere" }}>
        {change.summary}
      </Text>
      {(change.before !== null || change.after !== null) && (
        <Flex gap="2" align="center" wrap="wrap" mb={crops.length ? "3" : "0"} aria-label="Before and after">
          <Value value={change.before} side="before" />
          <ArrowRightIcon aria-label="became" />
          <Value value={change.after} side="after" />
        </Flex>
      )}
      {crops.length > 0 && (
        <Grid columns={{ initial: "1", sm: crops.length === 2 ? "2" : "1" }} gap="3">
          {crops.map((c) => (
            <EvidenceCrop key={c.key} src={c.snap.screenshotUrl} frame={frame(c.snap)} boxes={c.boxes} caption={c.caption} tone={c.tone} />
          ))}
        </Grid>
      )}
    </Box>
  );
}
