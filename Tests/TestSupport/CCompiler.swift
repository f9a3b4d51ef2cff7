/// Compiles small C programs against the plugin ABI headers (`SDK/CStradaPlugin/include`) only, with the
/// system's `cc`: the one way tests build C plugins and check the headers.
public enum CCompiler {
    /// The folder holding `strada_plugin.h`.
    public static var includeDirectory: String { Repository.path("SDK/CStradaPlugin/include") }

    /// What the C test plugins share (`Tests/EndToEndTests/Fixtures/plugin-support.c`: the host table, an
    /// instance, `str`, a flat-JSON scanner), to put before a fixture plugin's own source.
    public static var fixturePluginSupport: String {
        (try? String(contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/plugin-support.c"), encoding: .utf8))
            ?? ""
    }

    /// Compiles the C `source` into the shared library `output` (`cc -std=c11 -shared -fPIC`), read from
    /// standard input so that no source file lands next to the library. Throws ``ProcessRunner/Failed``
    /// with the compiler's diagnostics when it fails.
    public static func sharedLibrary(_ source: String, at output: String) throws {
        let arguments = ["-std=c11", "-shared", "-fPIC", "-I", includeDirectory, "-x", "c", "-", "-o", output]
        let result = try ProcessRunner.runBlocking("cc", arguments, input: source, timeout: 120)
        guard result.succeeded else {
            throw ProcessRunner.Failed(
                command: "cc " + arguments.joined(separator: " "), output: result, reason: "could not build \(output)")
        }
    }

    /// Compiles the C `source` into the object file `output` (`cc -std=c11 -c -fPIC`, not linked), as a build
    /// leaves beside its library. Throws ``ProcessRunner/Failed`` with the compiler's diagnostics when it fails.
    public static func object(_ source: String, at output: String) throws {
        let arguments = ["-std=c11", "-c", "-fPIC", "-I", includeDirectory, "-x", "c", "-", "-o", output]
        let result = try ProcessRunner.runBlocking("cc", arguments, input: source, timeout: 120)
        guard result.succeeded else {
            throw ProcessRunner.Failed(
                command: "cc " + arguments.joined(separator: " "), output: result, reason: "could not build \(output)")
        }
    }

    /// Compiles `file` without linking (`-c -o /dev/null`) with `compiler` (e.g. `"cc"` or `"c++"`) and
    /// `flags`, against the ABI headers; the output says whether it compiled and what the compiler said.
    public static func check(_ file: String, compiler: String, flags: [String]) throws -> ProcessRunner.Output {
        let arguments = flags + ["-I", includeDirectory, "-c", file, "-o", "/dev/null"]
        return try ProcessRunner.runBlocking(compiler, arguments, timeout: 120)
    }
}
