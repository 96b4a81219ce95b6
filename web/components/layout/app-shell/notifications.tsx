import { BellIcon } from "@radix-ui/react-icons";
import { Flex, IconButton, Popover, Spinner, Text, Tooltip } from "@radix-ui/themes";
import { Link } from "react-router";
import { ActivityEntry } from "./activity-item";
import { useNow } from "./relative-time";
import type { ShellActivityItem, ShellDataState } from "./types";

const SHOWN = 6;

export interface NotificationsButtonProps {
  items: ShellActivityItem[];
  state: ShellDataState;
  /** Count of entries not yet seen, for the bell; hidden when null. */
  badge: string | null;
  /** The list was opened (what it shows now counts as seen). */
  onOpen?(): void;
}

function NotificationsList({ items, state }: Pick<NotificationsButtonProps, "items" | "state">) {
  const now = useNow(15_000);
  if (state === "loading")
    return (
      <Flex align="center" gap="2" py="3" role="status">
        <Spinner size="1" />
        <Text size="2" color="gray">
          Loading activity...
        </Text>
      </Flex>
    );
  if (items.length === 0)
    return (
      <Flex direction="column" gap="1" py="3" className="di-empty">
        <Text size="2" weight="medium">
          No activity yet
        </Text>
        <Text size="1" color="gray">
          {state === "unavailable"
            ? "The activity feed is not reachable right now."
            : "When the agents or your comparisons do something, it shows up here."}
        </Text>
      </Flex>
    );
  return (
    <ul className="di-notification-list" tabIndex={0} aria-label="Recent notifications">
      {items.slice(0, SHOWN).map((item) => (
        <li key={item.id}>
          <ActivityEntry item={item} now={now} compact />
        </li>
      ))}
    </ul>
  );
}

export function NotificationsButton({ items, state, badge, onOpen }: NotificationsButtonProps) {
  const name = badge ? `Notifications, ${badge} new` : "Notifications";
  return (
    <Popover.Root onOpenChange={(open) => open && onOpen?.()}>
      <Tooltip content="Notifications">
        <Popover.Trigger>
          <IconButton variant="ghost" color="gray" aria-label={name} className="di-bell">
            <BellIcon />
            {badge && (
              <span className="di-bell-count" aria-hidden>
                {badge}
              </span>
            )}
          </IconButton>
        </Popover.Trigger>
      </Tooltip>
      <Popover.Content width="340px" align="end" aria-label="Notifications">
        <Flex justify="between" align="center" mb="2">
          <Text size="2" weight="bold">
            Notifications
          </Text>
          <Popover.Close>
            <Link to="/activity" className="di-text-link">
              <Text size="1">View all activity</Text>
            </Link>
          </Popover.Close>
        </Flex>
        <NotificationsList items={items} state={state} />
      </Popover.Content>
    </Popover.Root>
  );
}
