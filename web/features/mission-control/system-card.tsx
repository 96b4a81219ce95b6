import { PlayIcon, StopIcon } from "@radix-ui/react-icons";
import { Badge, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";

export interface SystemCardProps {
  active: boolean | null;
  pending: "start" | "stop" | null;
  isAdmin: boolean;
  onLaunch(): void;
  onStop(): void;
}

/** Spec §2: Launch System and Stop System buttons with an Active or Offline badge. */
export function SystemCard({ active, pending, isAdmin, onLaunch, onStop }: SystemCardProps) {
  return (
    <Card size="3" className="mc-system-card" data-active={active ? "true" : "false"}>
      <Flex direction="column" gap="3" height="100%" justify="between">
        <Flex direction="column" gap="2">
          <Flex align="center" justify="between" gap="3" wrap="wrap">
            <Heading as="h2" size="4">
              AI Design Intelligence System
            </Heading>
            <Badge size="2" color={active ? "green" : "gray"} variant={active ? "solid" : "soft"} data-testid="system-badge">
              {active ? "Active" : "Offline"}
            </Badge>
          </Flex>
          <Text size="2" color="gray">
            {active
              ? "Four agents are mining trends, generating components, running A/B tests and scoring predictions."
              : "The agents are asleep. Launch the system and they get to work on what you've captured."}
          </Text>
          {!isAdmin && (
            <Text size="1" color="gray">
              Only admins can launch or stop the system.
            </Text>
          )}
        </Flex>
        <Flex gap="3" wrap="wrap">
          <Button size="3" onClick={onLaunch} disabled={active === true || pending !== null} loading={pending === "start"}>
            <PlayIcon aria-hidden /> Launch System
          </Button>
          <Button
            size="3"
            variant="soft"
            color="red"
            onClick={onStop}
            disabled={active === false || pending !== null}
            loading={pending === "stop"}
          >
            <StopIcon aria-hidden /> Stop System
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
