import { Flex, Typography } from '@strapi/design-system';

/** A users-permissions user (an owner) as username over email; `deleted` when the account is gone. */
export const UserName = ({ user, deleted }: { user: { username: string; email: string } | null; deleted: string }) => {
  if (!user) return <Typography textColor="neutral600">{deleted}</Typography>;
  return (
    <Flex direction="column" alignItems="flex-start">
      <Typography textColor="neutral800">{user.username}</Typography>
      <Typography variant="pi" textColor="neutral600">
        {user.email}
      </Typography>
    </Flex>
  );
};
