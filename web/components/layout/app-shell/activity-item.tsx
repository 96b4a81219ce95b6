import { Badge, Flex, Progress, Text } from "@radix-ui/themes";
import { formatRelative } from "./relative-time";
import type { ShellActivityItem, ShellActivityStatus } from "./types";

const STATUS: Record<ShellActivityStatus, { label: string; color: "blue" | "green" | "red" | "gray" | "amber" }> = {
  running: { label: "Running", color: "blue" },
  completed: { label: "Completed", color: "green" },
  error: { label: "Error", color: "red" },
  queued: { label: "Queued", color: "gray" },
  warning: { label: "Warning", color: "amber" },
};

/** One activity entry as the rail and the notifications list show it. */
export function ActivityEntry({ item, now, compact = false }: { item: ShellActivityItem; now: number | null; compact?: boolean }) {
  const status = STATUS[item.status];
  return (
    <article className="di-activity-entry" data-status={item.status}>
      <Flex justify="between" align="start" gap="2">
        <Text size="2" weight="medium" className="di-activity-title">
          {item.title}
        </Text>
        <Badge size="1" color={status.color} variant="soft" highContrast className="di-activity-badge">
          {status.label}
        </Badge>
      </Flex>
      {item.description && !compact && (
        <Text as="p" size="1" color="gray" className="di-activity-description">
          {item.description}
        </Text>
      )}
      {item.progress !== null && item.status === "running" && (
        <Progress value={item.progress} size="1" mt="2" color="blue" aria-label={`${item.title}: ${item.progress}% done`} />
      )}
      <Flex justify="between" gap="2" mt="1">
        <Text size="1" color="gray" truncate>
          {item.agent ?? "System"}
        </Text>
        <Text size="1" color="gray" asChild>
          <time dateTime={new Date(item.timestamp).toISOString()}>{now === null ? "" : formatRelative(item.timestamp, now)}</time>
        </Text>
      </Flex>
    </article>
  );
}
