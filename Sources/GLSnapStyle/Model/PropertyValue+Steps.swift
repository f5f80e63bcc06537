extension PropertyValue {
    /// A value that is a top-level `step` over `input` (`"line-progress"`, ...) whose outputs do not
    /// depend on it: each step's start (the first −∞) and its value. nil for anything else. A color
    /// ramp drawn from it can give each step its exact extent instead of sampling a texture
    /// (MapLibre samples a step's ramp with nearest filtering, so its steps stay sharp too).
    public func constantSteps(over input: String) -> [(start: Double, value: Value)]? {
        guard case .expression(let e) = kind, let step = e as? StepExpr,
              let call = step.input as? CallExpr, call.name == input, call.args.isEmpty,
              step.labels.count == step.outputs.count else { return nil }
        var steps: [(start: Double, value: Value)] = []
        for (label, output) in zip(step.labels, step.outputs) {
            guard ExprAnalysis.isGlobalConstant(output, ExprAnalysis.allGlobals), ExprAnalysis.isFeatureConstant(output),
                  let v = try? output.evaluate(EvaluationContext(zoom: 0)) else { return nil }
            steps.append((label, v))
        }
        return steps
    }
}
