import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Link } from "react-router";

export function ComparisonNotFound() {
  return (
    <Flex justify="center" p="6">
      <Card size="4" style={{ maxWidth: 480, width: "100%" }}>
        <Flex direction="column" align="center" gap="3">
          <Heading as="h1" size="6">
            Comparison Not Found
          </Heading>
          <Text color="gray" align="center">
            The comparison you're looking for doesn't exist.
          </Text>
          <Button asChild>
            <Link to="/comparison">
              <ArrowLeftIcon /> Back to Comparisons
            </Link>
          </Button>
        </Flex>
      </Card>
    </Flex>
  );
}
