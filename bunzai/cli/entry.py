def main() -> None:
    print("bunzai: under construction")
