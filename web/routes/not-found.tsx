import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "react-router";

export const handle = { title: "404 Page Not Found" };

export function Component() {
  return (
    <Flex asChild direction="column" align="center" justify="center" gap="4" style={{ minHeight: "100vh", padding: 24 }}>
      <main>
        <Heading size="8">404 Page Not Found</Heading>
        <Text color="gray">This page wandered off. The robots looked everywhere.</Text>
        <Button asChild size="3">
          <Link to="/">Back to the homepage</Link>
        </Button>
      </main>
    </Flex>
  );
}
