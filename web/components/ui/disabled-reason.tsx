import { LockClosedIcon } from "@radix-ui/react-icons";
import { Flex, Text, Tooltip } from "@radix-ui/themes";
import type { ReactNode } from "react";

/**
 * A control that is off for a reason says why on hover and focus. A disabled button gets no pointer
 * or focus events, so the tooltip sits on a focusable wrapper that carries the reason as its name.
 */
export function DisabledReason({ reason, children }: { reason: string | null; children: ReactNode }) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip content={reason}>
      <span tabIndex={0} role="group" className="di-disabled-reason" aria-label={reason}>
        {children}
      </span>
    </Tooltip>
  );
}

/** The reason in words, beside controls that are off for it (a viewer's write buttons). */
export function ReasonNote({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <Flex align="center" gap="1" data-testid="disabled-reason">
      <LockClosedIcon aria-hidden color="var(--gray-10)" />
      <Text size="1" color="gray">
        {reason}
      </Text>
    </Flex>
  );
}
