-- SDK users mirror what Entrupy keeps (issue 11): the first accepted email and names stay.
-- A user whose first authorisation here drew a 409 was registered with Entrupy by someone
-- else's call, with details the relay never saw: the username is stored, the email is
-- unknown until a call Entrupy accepts (200) says which details it holds.
ALTER TABLE sdk_users ALTER COLUMN email DROP NOT NULL;
