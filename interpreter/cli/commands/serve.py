"""referee serve: the web table (interpreter/web/, imported only for this command)."""


def cmd_serve(args) -> int:
    from ...web.serve import serve_command
    return serve_command(args)
