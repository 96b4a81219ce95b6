import { Badge } from "@radix-ui/themes";
import type { RunDto } from "../api";

const STATUS = {
  running: { color: "blue", label: "Running" },
  completed: { color: "green", label: "Completed" },
  failed: { color: "red", label: "Failed" },
  interrupted: { color: "orange", label: "Interrupted" },
} as const satisfies Record<RunDto["status"], { color: string; label: string }>;

export function RunStatusBadge({ status }: { status: RunDto["status"] }) {
  return (
    <Badge color={STATUS[status].color} variant="soft">
      {STATUS[status].label}
    </Badge>
  );
}

export function TriggerBadge({ trigger }: { trigger: RunDto["trigger"] }) {
  return (
    <Badge color={trigger === "schedule" ? "iris" : "gray"} variant="outline">
      {trigger === "schedule" ? "Scheduled" : "Manual"}
    </Badge>
  );
}
