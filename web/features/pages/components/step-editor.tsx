import { Button, Card, Flex, IconButton, Select, Text, TextField } from "@radix-ui/themes";
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, TrashIcon } from "@radix-ui/react-icons";
import type { StepType } from "#server/modules/capture/model";
import { emptyDraft, MAX_STEPS, STEP_FIELDS, STEP_TYPES, type StepDraft, type StepField } from "../steps";

interface Props {
  steps: StepDraft[];
  onChange(steps: StepDraft[]): void;
  /** The step (from 1) an error names, to mark it. */
  problemStep: number | null;
  /** The ids of the inputs start with this (several editors can share a page). */
  idPrefix: string;
}

const TYPE_HINTS: Record<StepType, string> = {
  click: "Click",
  fill: "Fill a field",
  press: "Press a key",
  select: "Choose an option",
  wait: "Wait",
  scroll: "Scroll",
  hide: "Hide elements",
  goto: "Go to a page",
};

/** An ordered list of steps the capture takes before it measures the page. */
export function StepEditor({ steps, onChange, problemStep, idPrefix }: Props) {
  const set = (i: number, next: StepDraft) => onChange(steps.map((s, j) => (j === i ? next : s)));
  const move = (i: number, by: -1 | 1) => {
    const out = [...steps];
    const [s] = out.splice(i, 1);
    out.splice(i + by, 0, s as StepDraft);
    onChange(out);
  };
  return (
    <Flex direction="column" gap="2" data-testid="step-editor">
      {steps.length === 0 && (
        <Text size="2" color="gray">
          No steps: the page is captured as it opens.
        </Text>
      )}
      <Flex direction="column" gap="2" asChild>
        <ol style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {steps.map((s, i) => {
            const n = i + 1;
            const id = `${idPrefix}-step-${n}`;
            return (
              <li key={i} aria-label={`Step ${n}`}>
                <Card
                  variant="surface"
                  data-invalid={problemStep === n ? "true" : undefined}
                  style={problemStep === n ? { boxShadow: "inset 0 0 0 1px var(--red-8)" } : undefined}
                >
                  <Flex gap="2" align="end" wrap="wrap">
                    <Text size="2" weight="bold" style={{ minWidth: 20, alignSelf: "center" }}>
                      {n}.
                    </Text>
                    <Flex direction="column" gap="1">
                      <Text size="1" aria-hidden>
                        Type
                      </Text>
                      <Select.Root size="1" value={s.type} onValueChange={(v) => set(i, { ...s, type: v as StepType })}>
                        <Select.Trigger aria-label={`Step ${n} type`} style={{ minWidth: 130 }} />
                        <Select.Content position="popper">
                          {STEP_TYPES.map((t) => (
                            <Select.Item key={t} value={t}>
                              {TYPE_HINTS[t]}
                            </Select.Item>
                          ))}
                        </Select.Content>
                      </Select.Root>
                    </Flex>
                    {STEP_FIELDS[s.type].map((f) => (
                      <StepInput
                        key={f.field}
                        id={`${id}-${f.field}`}
                        n={n}
                        draft={s}
                        field={f}
                        onChange={(v) => set(i, { ...s, [f.field]: v })}
                      />
                    ))}
                    <Flex gap="1" ml="auto" style={{ alignSelf: "center" }}>
                      <IconButton size="1" variant="ghost" aria-label={`Move step ${n} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                        <ArrowUpIcon />
                      </IconButton>
                      <IconButton
                        size="1"
                        variant="ghost"
                        aria-label={`Move step ${n} down`}
                        disabled={i === steps.length - 1}
                        onClick={() => move(i, 1)}
                      >
                        <ArrowDownIcon />
                      </IconButton>
                      <IconButton
                        size="1"
                        variant="ghost"
                        color="red"
                        aria-label={`Delete step ${n}`}
                        onClick={() => onChange(steps.filter((_, j) => j !== i))}
                      >
                        <TrashIcon />
                      </IconButton>
                    </Flex>
                  </Flex>
                </Card>
              </li>
            );
          })}
        </ol>
      </Flex>
      <Flex>
        <Button
          type="button"
          size="1"
          variant="soft"
          disabled={steps.length >= MAX_STEPS}
          onClick={() => onChange([...steps, emptyDraft()])}
        >
          <PlusIcon /> Add step
        </Button>
      </Flex>
    </Flex>
  );
}

interface InputProps {
  id: string;
  n: number;
  draft: StepDraft;
  field: { field: StepField; label: string; placeholder: string };
  onChange(v: string): void;
}

function StepInput({ id, n, draft, field, onChange }: InputProps) {
  const wide = field.field === "value" || field.field === "selector" || field.field === "url";
  return (
    <Flex direction="column" gap="1" style={{ flex: wide ? "1 1 180px" : "0 1 110px", minWidth: 0 }}>
      <Text as="label" size="1" htmlFor={id}>
        {field.label}
      </Text>
      <TextField.Root
        id={id}
        size="1"
        value={draft[field.field]}
        inputMode={field.field === "ms" ? "numeric" : undefined}
        placeholder={field.placeholder}
        aria-label={`Step ${n} ${field.label.toLowerCase()}`}
        onChange={(e) => onChange(e.target.value)}
      />
    </Flex>
  );
}
