"""The command groups' shared manners: an unknown subcommand is a usage error that names
the commands spelled alike (`bunzai lsit` -> did you mean list?)."""

from __future__ import annotations

from typer.core import TyperGroup


def unknown_command(ctx, group, name: str, close: list[str] | None = None):
    """The usage error for `name`, which `group` does not have, with a did-you-mean hint
    (`close`, when given, names the commands meant)."""
    from bunzai.errors import unknown_name

    visible = [command for command in group.list_commands(ctx) if not group.get_command(ctx, command).hidden]
    where = ctx.command_path
    return unknown_name(
        "usage", f"`{where}` has no command {name!r}", name, visible, f"see `{where} --help`", close=close
    )


class SuggestingGroup(TyperGroup):
    """A Typer group whose unknown subcommands get a did-you-mean hint (exit 2)."""

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if name and not name.startswith("-") and not ctx.resilient_parsing and self.get_command(ctx, name) is None:
            raise unknown_command(ctx, self, name)
        return super().resolve_command(ctx, args)
