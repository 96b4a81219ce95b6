import { Button, Flex, Text } from "@radix-ui/themes";

export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage(p: number): void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Flex justify="between" align="center" mt="3">
      <Text size="1" color="gray">
        Page {page} of {pages} · {total} total
      </Text>
      <Flex gap="2">
        <Button size="1" variant="soft" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button size="1" variant="soft" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </Flex>
    </Flex>
  );
}
