import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { GearIcon } from "@radix-ui/react-icons";
import { MAINTENANCE_MESSAGE } from "../messages";

/** Shown instead of the app to non-admins while maintenance mode is on. */
export function MaintenanceScreen({ onSignOut }: { onSignOut?: () => void }) {
  return (
    <Flex asChild align="center" justify="center" p="6" style={{ minHeight: "100vh" }} data-testid="maintenance-screen">
      <main>
        <Card size="4" style={{ maxWidth: 520, width: "100%" }}>
          <Flex direction="column" gap="3" align="center" role="status">
            <GearIcon width="36" height="36" aria-hidden="true" className="di-spin-slow" />
            <Heading as="h1" size="6" align="center">
              Down for a Tune-Up
            </Heading>
            <Text align="center">{MAINTENANCE_MESSAGE}</Text>
            <Text size="2" color="gray" align="center">
              We're tightening bolts behind the scenes. This page checks back by itself every 30 seconds.
            </Text>
            {onSignOut && (
              <Button variant="soft" color="gray" onClick={onSignOut}>
                Sign out
              </Button>
            )}
          </Flex>
        </Card>
      </main>
    </Flex>
  );
}
