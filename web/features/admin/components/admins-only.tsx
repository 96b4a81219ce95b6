import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { LockClosedIcon } from "@radix-ui/react-icons";
import { Link } from "react-router";

/** What a signed-in non-admin sees at /super-admin; the API answers them 403 as well. */
export function AdminsOnly() {
  return (
    <Flex align="center" justify="center" p="6" style={{ minHeight: "60vh" }}>
      <Card size="4" style={{ maxWidth: 480, width: "100%" }}>
        <Flex direction="column" gap="3" align="center">
          <LockClosedIcon width="32" height="32" aria-hidden="true" />
          <Heading as="h1" size="6" align="center">
            Admins Only
          </Heading>
          <Text color="gray" align="center">
            The super-admin console is for administrators. If you need access, ask an admin to promote your account.
          </Text>
          <Button asChild>
            <Link to="/dashboard">Back to Mission Control</Link>
          </Button>
        </Flex>
      </Card>
    </Flex>
  );
}
