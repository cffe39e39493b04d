def plot_power_curve(*a, **k): raise NotImplementedError
