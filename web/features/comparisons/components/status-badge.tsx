import { Badge } from "@radix-ui/themes";
import { statusColor } from "../status";

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={statusColor(status)} variant="soft" highContrast radius="full" data-status={status}>
      {status}
    </Badge>
  );
}
